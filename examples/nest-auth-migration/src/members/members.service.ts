import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'
import { Injectable, NotFoundException } from 'fastify-decorator-plugin'
import { Member } from './member.entity'

function hash (password: string, salt = randomBytes(8).toString('hex')): string {
  return `${salt}:${scryptSync(password, salt, 32).toString('hex')}`
}

function matches (password: string, stored: string): boolean {
  const [salt, digest] = stored.split(':')
  return timingSafeEqual(Buffer.from(digest, 'hex'), scryptSync(password, salt, 32))
}

@Injectable()
export class MembersService {
  private readonly members = [
    new Member({ id: 1, username: 'ada', email: 'ada@example.com', passwordHash: hash('engine-1843') }),
    new Member({ id: 2, username: 'grace', email: 'grace@example.com', passwordHash: hash('cobol-1959') })
  ]

  findById (id: number): Member | undefined {
    return this.members.find((member) => member.id === id)
  }

  get (id: number): Member {
    const member = this.findById(id)
    if (member === undefined) throw new NotFoundException(`No member #${id}`)
    return member
  }

  /** The member with these credentials, or null. */
  checkCredentials (username: string, password: string): Member | null {
    const member = this.members.find((candidate) => candidate.username === username)
    return member !== undefined && matches(password, member.passwordHash) ? member : null
  }
}
