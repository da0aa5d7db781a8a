import { JwtModule, JwtService } from '@nestjs/jwt'
import { Test } from 'fastify-decorator-plugin/testing'
import { Member } from '../members/member.entity'
import { MembersService } from '../members/members.service'
import { AuthService } from './auth.service'

describe('AuthService', () => {
  const ada = new Member({ id: 1, username: 'ada', email: 'ada@example.com', passwordHash: 'x:y' })
  const checkCredentials = jest.fn((username: string, password: string) => username === 'ada' && password === 'right' ? ada : null)
  let auth: AuthService
  let jwt: JwtService

  beforeEach(async () => {
    checkCredentials.mockClear()
    // MembersService is not provided: the mocker stands in for it.
    const moduleRef = await Test.createTestingModule({
      imports: [JwtModule.register({ secret: 'spec-secret', signOptions: { expiresIn: '1m' } })],
      providers: [AuthService]
    })
      .useMocker((token) => token === MembersService ? { checkCredentials } : undefined)
      .compile()

    auth = moduleRef.get(AuthService)
    jwt = moduleRef.get(JwtService)
  })

  it('validates through the members service', () => {
    expect(auth.validate('ada', 'right')).toBe(ada)
    expect(auth.validate('ada', 'wrong')).toBeNull()
    expect(checkCredentials).toHaveBeenCalledTimes(2)
  })

  it('issues a bearer token naming the member, signed with the module\'s secret', async () => {
    const answer = await auth.issueToken(ada)
    expect(answer.token_type).toBe('Bearer')
    const payload = await jwt.verifyAsync(answer.access_token)
    expect(payload).toMatchObject({ sub: 1, username: 'ada' })
    expect(payload.exp - payload.iat).toBe(60)
    await expect(new JwtService({ secret: 'another' }).verifyAsync(answer.access_token)).rejects.toThrow('invalid signature')
  })
})
