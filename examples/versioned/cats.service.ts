import { Injectable } from '../../plugin/index.js'

export interface Cat { id: number, name: string, born: number }

@Injectable()
export class CatsService {
  private readonly cats: Cat[] = [
    { id: 1, name: 'Tom', born: 2019 },
    { id: 2, name: 'Felix', born: 2021 }
  ]

  all (): Cat[] { return this.cats }

  find (id: number): Cat | undefined { return this.cats.find((cat) => cat.id === id) }
}
