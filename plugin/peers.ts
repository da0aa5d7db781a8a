import type createErrorType from '@fastify/error'
import type fastifyPluginType from 'fastify-plugin'
import requirePeer from './require-peer.cjs'

// The package's CommonJS dependencies, required rather than imported: for an ES import Node runs
// its CommonJS export lexer over the package's source, which costs startup several times what
// loading it does. Both export their function as module.exports.
export const createError = requirePeer('@fastify/error') as typeof createErrorType
export const fp = requirePeer('fastify-plugin') as typeof fastifyPluginType
