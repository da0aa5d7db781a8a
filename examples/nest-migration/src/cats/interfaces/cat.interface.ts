export interface Cat {
  id: number
  name: string
  age: number
  breed: string
}
