import { Injectable } from '../../plugin/index.js'

export interface WebhookEvent { type: string, [key: string]: unknown }

@Injectable()
export class EventsService {
  readonly #events: WebhookEvent[] = []

  record (event: WebhookEvent): number {
    return this.#events.push(event)
  }

  all (): WebhookEvent[] {
    return [...this.#events]
  }
}
