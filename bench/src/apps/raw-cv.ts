import type { FastifyReply, FastifyRequest } from 'fastify'
import { plainToInstance } from 'class-transformer'
import { validate, type ValidationError } from 'class-validator'
import { CreateItemDto } from './dto.js'

function messages (errors: ValidationError[]): string[] {
  return errors.flatMap((error) => Object.values(error.constraints ?? {}))
}

/** class-validator on the parsed body, as a ValidationPipe does: plainToInstance, then validate. */
export async function validateItem (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const errors = await validate(plainToInstance(CreateItemDto, request.body as object), { forbidUnknownValues: false })
  if (errors.length > 0) return reply.code(400).send({ message: messages(errors), error: 'Bad Request', statusCode: 400 })
}
