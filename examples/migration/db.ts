/** A stand-in for a real database client (pg, mysql, ...): what the existing app already has. */
export interface Row { [column: string]: unknown }

export class Db {
  readonly #tables = new Map<string, Row[]>()

  constructor (seed: Record<string, Row[]> = {}) {
    for (const [table, rows] of Object.entries(seed)) this.#tables.set(table, rows.map((row) => ({ ...row })))
  }

  async select (table: string, where: Row = {}): Promise<Row[]> {
    return (this.#tables.get(table) ?? []).filter((row) => Object.entries(where).every(([key, value]) => row[key] === value))
  }

  async insert (table: string, row: Row): Promise<Row> {
    const rows = this.#tables.get(table) ?? []
    const stored = { id: rows.length + 1, ...row }
    rows.push(stored)
    this.#tables.set(table, rows)
    return stored
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
  }
}
