import { Injectable, UnauthorizedException } from 'fastify-decorator-plugin'
import { PassportStrategy } from '@nestjs/passport'
import { ExtractJwt, Strategy } from 'passport-jwt'
import type { Member } from '../members/member.entity'
import { MembersService } from '../members/members.service'
import { tokenSecret } from './auth.settings'
import type { TokenPayload } from './auth.service'

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor (private readonly members: MembersService) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      secretOrKey: tokenSecret
    })
  }

  // What the guard puts on request.user: the member as stored now, not the token's copy.
  validate (payload: TokenPayload): Member {
    const member = this.members.findById(payload.sub)
    if (member === undefined) throw new UnauthorizedException('The member no longer exists')
    return member
  }
}
