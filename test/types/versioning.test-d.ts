// Type tests for versioning and view options: each @ts-expect-error must be an error.
import Fastify from 'fastify'
import { decoratorPlugin, Module, Controller, Get, Version, Render, VERSION_NEUTRAL, type DecoratorPluginOptions } from '../../plugin/index.js'

@Controller({ path: 'cats', version: ['1', VERSION_NEUTRAL] })
class Cats {
  @Version('2') @Get() v2 () { return 2 }
  @Version(['3', '4']) @Get() v34 () { return 34 }
  @Version(VERSION_NEUTRAL) @Render('index') @Get('page') page () { return { title: 'x' } }
  // @ts-expect-error: a version is a string, a list, or VERSION_NEUTRAL
  @Version(1) @Get('n') n () { return 1 }
}

@Module({ controllers: [Cats] })
class AppModule {}

const app = Fastify()
const options: DecoratorPluginOptions[] = [
  { module: AppModule, versioning: { type: 'header' } },
  { module: AppModule, versioning: { type: 'header', header: 'X-API-Version', defaultVersion: '1' } },
  { module: AppModule, versioning: { type: 'uri', prefix: false, defaultVersion: [VERSION_NEUTRAL, '1'] } },
  { module: AppModule, versioning: { type: 'media-type', key: 'v=' } },
  // the extractor gets Node's request: headers, url, method
  { module: AppModule, versioning: { type: 'custom', extractor: (request) => [String(request.headers['x-v']), request.url ?? ''] } },
  { module: AppModule, view: { engine: {}, root: 'views' } }
]
for (const entry of options) await app.register(decoratorPlugin, entry)

// @ts-expect-error: an unknown type
await app.register(decoratorPlugin, { module: AppModule, versioning: { type: 'query' } })
// @ts-expect-error: the prefix is a string or false
await app.register(decoratorPlugin, { module: AppModule, versioning: { type: 'uri', prefix: true } })
// @ts-expect-error: custom needs an extractor
await app.register(decoratorPlugin, { module: AppModule, versioning: { type: 'custom' } })
// @ts-expect-error: routing runs before Fastify's request exists, so there is no parsed query
await app.register(decoratorPlugin, { module: AppModule, versioning: { type: 'custom', extractor: (request) => request.query.v } })
