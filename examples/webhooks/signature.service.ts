import { createHmac, timingSafeEqual } from 'node:crypto'
import { Inject, Injectable } from '../../plugin/index.js'

export const WEBHOOK_SECRET = 'WEBHOOK_SECRET'

/** Checks `sha256=<hex>` signatures, computed over the exact bytes the sender posted. */
@Injectable()
export class SignatureService {
  constructor (@Inject(WEBHOOK_SECRET) private readonly secret: string) {}

  sign (payload: Buffer | string): string {
    return `sha256=${createHmac('sha256', this.secret).update(payload).digest('hex')}`
  }

  verify (payload: Buffer, signature: string | undefined): boolean {
    if (signature === undefined) return false
    const expected = Buffer.from(this.sign(payload))
    const given = Buffer.from(signature)
    // Equal lengths first: timingSafeEqual throws otherwise.
    return expected.length === given.length && timingSafeEqual(expected, given)
  }
}
