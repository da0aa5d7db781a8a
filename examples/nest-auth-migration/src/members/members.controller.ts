import { Controller, Get, Param, ParseIntPipe } from 'fastify-decorator-plugin'
import type { Member } from './member.entity'
import { MembersService } from './members.service'

@Controller('members')
export class MembersController {
  constructor (private readonly members: MembersService) {}

  @Get(':id')
  findOne (@Param('id', ParseIntPipe) id: number): Member {
    return this.members.get(id)
  }
}
