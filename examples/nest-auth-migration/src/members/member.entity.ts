import { Exclude, Expose } from 'class-transformer'

export class Member {
  id!: number
  username!: string

  // Never leaves the server: ClassSerializerInterceptor drops it from every answer.
  @Exclude()
  passwordHash!: string

  // Only the member's own profile shows it (the route asks for the group).
  @Expose({ groups: ['self'] })
  email!: string

  constructor (fields: Partial<Member>) {
    Object.assign(this, fields)
  }

  @Expose()
  get handle (): string {
    return `@${this.username}`
  }
}
