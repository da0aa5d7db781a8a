import { Injectable, UnauthorizedException } from 'fastify-decorator-plugin'
import { PassportStrategy } from '@nestjs/passport'
import { Strategy } from 'passport-local'
import type { Member } from '../members/member.entity'
import { AuthService } from './auth.service'

@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy) {
  constructor (private readonly auth: AuthService) {
    super({ usernameField: 'login', passwordField: 'secret' })
  }

  validate (login: string, secret: string): Member {
    const member = this.auth.validate(login, secret)
    if (member === null) throw new UnauthorizedException('Wrong login or secret')
    return member
  }
}
