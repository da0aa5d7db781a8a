import type { FastifyInstance } from 'fastify'
import { ERR_MISSING_PEER, ERR_VIEW_NOT_CONFIGURED } from './errors.js'

/**
 * Makes `reply.view` available to @Render routes: the user's own @fastify/view if the app
 * has one, else one registered from the plugin option `view`, inside the plugin's context.
 */
export async function registerView (root: FastifyInstance, app: FastifyInstance, options: Record<string, unknown> | undefined, renders: Array<{ owner: string }>): Promise<void> {
  if (options === undefined) {
    if (renders.length > 0 && !app.hasReplyDecorator('view')) {
      throw new ERR_VIEW_NOT_CONFIGURED(`${renders[0].owner} uses @Render(), but no view engine is registered. Pass the plugin option view: { engine: { ejs }, root: viewsDir }, or register @fastify/view on the app before this plugin.`)
    }
    return
  }
  if (app.hasReplyDecorator('view')) return
  let view: { default: (...args: any[]) => any }
  try {
    view = await import('@fastify/view' as string)
  } catch (error) {
    throw new ERR_MISSING_PEER('The plugin option "view" needs @fastify/view: npm install @fastify/view and a template engine (e.g. ejs).', { cause: error })
  }
  await root.register(view.default, options)
}
