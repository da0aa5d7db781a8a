import { Injectable, Logger, NotFoundException } from 'fastify-decorator-plugin'
import type { CreateCatDto } from './dto/create-cat.dto.js'
import type { Cat } from './interfaces/cat.interface.js'

@Injectable()
export class CatsService {
  private readonly logger = new Logger(CatsService.name)
  private readonly cats: Cat[] = []
  private lastId = 0

  create (createCatDto: CreateCatDto): Cat {
    const cat: Cat = { id: ++this.lastId, ...createCatDto }
    this.cats.push(cat)
    this.logger.log(`Added ${cat.name} as #${cat.id}`)
    return cat
  }

  findAll (): Cat[] {
    return this.cats
  }

  findOne (id: number): Cat {
    const cat = this.cats.find((candidate) => candidate.id === id)
    if (cat === undefined) throw new NotFoundException(`Cat #${id} not found`)
    return cat
  }

  remove (id: number): void {
    this.cats.splice(this.cats.indexOf(this.findOne(id)), 1)
  }
}
