import { Controller, Get, HttpCode, HttpStatus, Post, Request, SerializeOptions, UseGuards } from 'fastify-decorator-plugin'
import { AuthGuard } from '@nestjs/passport'
import type { Member } from '../members/member.entity'
import { AuthService } from './auth.service'

@Controller('auth')
export class AuthController {
  constructor (private readonly auth: AuthService) {}

  // passport-local has checked the body's login and secret before this runs.
  @Post('login')
  @HttpCode(HttpStatus.OK)
  @UseGuards(AuthGuard('local'))
  login (@Request() req: { user: Member }) {
    return this.auth.issueToken(req.user)
  }

  @Get('me')
  @UseGuards(AuthGuard('jwt'))
  @SerializeOptions({ groups: ['self'] })
  me (@Request() req: { user: Member }): Member {
    return req.user
  }
}
