export interface Book {
  id: number
  title: string
  addedBy: string
}
