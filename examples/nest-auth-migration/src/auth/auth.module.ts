import { Module } from 'fastify-decorator-plugin'
import { JwtModule } from '@nestjs/jwt'
import { PassportModule } from '@nestjs/passport'
import { MembersModule } from '../members/members.module'
import { AuthController } from './auth.controller'
import { AuthService } from './auth.service'
import { tokenLifetime, tokenSecret } from './auth.settings'
import { JwtStrategy } from './jwt.strategy'
import { LocalStrategy } from './local.strategy'

@Module({
  imports: [
    MembersModule,
    PassportModule,
    JwtModule.register({ secret: tokenSecret, signOptions: { expiresIn: tokenLifetime } })
  ],
  controllers: [AuthController],
  providers: [AuthService, LocalStrategy, JwtStrategy]
})
export class AuthModule {}
