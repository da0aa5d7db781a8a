import { Injectable } from 'fastify-decorator-plugin'
import { JwtService } from '@nestjs/jwt'
import type { Member } from '../members/member.entity'
import { MembersService } from '../members/members.service'

export interface TokenPayload {
  sub: number
  username: string
}

@Injectable()
export class AuthService {
  constructor (
    private readonly members: MembersService,
    private readonly jwt: JwtService
  ) {}

  validate (username: string, password: string): Member | null {
    return this.members.checkCredentials(username, password)
  }

  async issueToken (member: Member): Promise<{ token_type: 'Bearer', access_token: string }> {
    const payload: TokenPayload = { sub: member.id, username: member.username }
    return { token_type: 'Bearer', access_token: await this.jwt.signAsync(payload) }
  }
}
