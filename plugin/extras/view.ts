import type { FastifyInstance } from 'fastify'
import { ERR_INVALID_OPTIONS, ERR_MISSING_PEER, ERR_VIEW_NOT_CONFIGURED } from '../util/errors.js'
import { describe } from '../util/describe.js'

/** Fails before anything is registered: a malformed `view` option, or @Render routes with no engine. */
export function checkView (app: FastifyInstance, options: unknown, renders: Array<{ owner: string }>): void {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new ERR_INVALID_OPTIONS(`decoratorPlugin option "view" must be an object of @fastify/view options such as { engine: { ejs }, root: viewsDir }, given ${describe(options)}.`)
  }
  if (options === undefined && renders.length > 0 && !app.hasReplyDecorator('view')) {
    throw new ERR_VIEW_NOT_CONFIGURED(`${renders[0].owner} uses @Render(), but no view engine is registered. Pass the plugin option view: { engine: { ejs }, root: viewsDir }, or register @fastify/view on the app before this plugin.`)
  }
}

/**
 * Makes `reply.view` available to @Render routes: the app's own @fastify/view if it has one
 * (used as it is), else one registered from the plugin option `view` inside the plugin's context.
 */
export async function registerView (root: FastifyInstance, app: FastifyInstance, options: Record<string, unknown> | undefined): Promise<void> {
  if (options === undefined || app.hasReplyDecorator('view')) return
  let view: { default: (...args: any[]) => any }
  try {
    view = await import('@fastify/view' as string)
  } catch (error) {
    throw new ERR_MISSING_PEER('The plugin option "view" needs @fastify/view: npm install @fastify/view and a template engine (e.g. ejs).', { cause: error })
  }
  await root.register(view.default, options)
}
