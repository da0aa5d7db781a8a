import { instanceToPlain } from 'class-transformer'
import { NotFoundException } from 'fastify-decorator-plugin'
import { MembersService } from './members.service'

describe('MembersService', () => {
  const service = new MembersService()

  it('finds a member by login and secret, and no one for a wrong secret or login', () => {
    expect(service.checkCredentials('ada', 'engine-1843')).toMatchObject({ id: 1, username: 'ada' })
    expect(service.checkCredentials('ada', 'cobol-1959')).toBeNull()
    expect(service.checkCredentials('charles', 'engine-1843')).toBeNull()
  })

  it('answers 404 for an unknown member', () => {
    expect(() => service.get(7)).toThrow(NotFoundException)
  })

  it('keeps the password hash out of what the entity turns into', () => {
    const member = service.get(2)
    expect(member.passwordHash).toMatch(/^[0-9a-f]+:[0-9a-f]{64}$/)
    expect(instanceToPlain(member)).toEqual({ id: 2, username: 'grace', handle: '@grace' })
    expect(instanceToPlain(member, { groups: ['self'] })).toEqual({ id: 2, username: 'grace', handle: '@grace', email: 'grace@example.com' })
  })
})
