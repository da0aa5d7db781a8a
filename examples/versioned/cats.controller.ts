import { Controller, Get, Param, ParseIntPipe, Render, Version, VERSION_NEUTRAL, NotFoundException } from '../../plugin/index.js'
import { CatsService, type Cat } from './cats.service.js'

// v1 speaks of names only; v2 adds the birth year and wraps lists in { data, total }.
const v1 = ({ id, name }: Cat) => ({ id, name })

@Controller({ path: 'cats', version: '1' })
export class CatsController {
  constructor (private readonly cats: CatsService) {}

  @Get()
  list () { return this.cats.all().map(v1) }

  @Version('2') @Get()
  listV2 () {
    const data = this.cats.all()
    return { data, total: data.length }
  }

  // One handler for both versions: the controller's version is overridden by a list.
  @Version(['1', '2']) @Get(':id')
  one (@Param('id', ParseIntPipe) id: number) {
    const cat = this.cats.find(id)
    if (!cat) throw new NotFoundException(`Cat ${id} not found`)
    return cat
  }

  // The HTML page is the same for every version: no version segment.
  @Version(VERSION_NEUTRAL) @Get('page') @Render('cats')
  page () { return { title: 'Cats', cats: this.cats.all() } }
}
