// The first decorated module of an existing Fastify app: orders move here, users stay plain.
import type { FastifyInstance } from 'fastify'
import {
  Body, Controller, FASTIFY, Get, Inject, Injectable, Module, NotFoundException, Param, ParseIntPipe, Post, BadRequestException
} from '../../plugin/index.js'

interface Order { id: number, userId: number, item: string }

@Injectable()
export class OrdersRepository {
  // FASTIFY is this module's encapsulated instance: the app's decorations (db) are on it.
  constructor (@Inject(FASTIFY) private readonly fastify: FastifyInstance) {}

  async forUser (userId: number): Promise<Order[]> {
    return await this.fastify.db.select('orders', { userId }) as unknown as Order[]
  }

  async create (userId: number, item: string): Promise<Order> {
    const users = await this.fastify.db.select('users', { id: userId })
    if (users.length === 0) throw new NotFoundException(`User ${userId} not found`)
    return await this.fastify.db.insert('orders', { userId, item }) as unknown as Order
  }
}

@Controller('users/:userId/orders')
export class OrdersController {
  constructor (private readonly orders: OrdersRepository) {}

  @Get()
  list (@Param('userId', ParseIntPipe) userId: number): Promise<Order[]> {
    return this.orders.forUser(userId)
  }

  @Post()
  create (@Param('userId', ParseIntPipe) userId: number, @Body('item') item: unknown): Promise<Order> {
    if (typeof item !== 'string' || item === '') throw new BadRequestException('item must be a non-empty string')
    return this.orders.create(userId, item)
  }
}

@Module({ controllers: [OrdersController], providers: [OrdersRepository] })
export class OrdersModule {}
