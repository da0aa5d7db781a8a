import { Injectable, NotFoundException } from '../../plugin/index.js'
import type { Cat } from './cat.js'
import type { CreateCatDto } from './create-cat.dto.js'

/** An in-memory store; one instance per application. */
@Injectable()
export class CatsService {
  readonly #cats: Cat[] = [{ id: 1, name: 'Tom', age: 3, breed: 'Tabby' }]
  #nextId = 2

  findAll (breed?: string): Cat[] {
    return breed === undefined ? this.#cats : this.#cats.filter((cat) => cat.breed === breed)
  }

  findOne (id: number): Cat {
    const cat = this.#cats.find((cat) => cat.id === id)
    if (!cat) throw new NotFoundException(`Cat ${id} not found`)
    return cat
  }

  create (dto: CreateCatDto): Cat {
    const cat = { id: this.#nextId++, name: dto.name, age: dto.age, breed: dto.breed }
    this.#cats.push(cat)
    return cat
  }

  remove (id: number): void {
    this.#cats.splice(this.#cats.indexOf(this.findOne(id)), 1)
  }
}
