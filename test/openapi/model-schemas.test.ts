import { test } from 'node:test'
import assert from 'node:assert/strict'
import 'reflect-metadata'
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger'
import { ModelSchemas, enumValues, enumType } from '../../plugin/openapi/model-schemas.js'
import { hasSwaggerMetadata, swaggerMetadata } from '../../plugin/openapi/swagger-metadata.js'

enum Level { Low = 1, High = 2 }

class Tag {
  @ApiProperty({ type: String, description: 'Label' }) label!: string
}

class TreeNode {
  @ApiProperty({ type: String }) name!: string
  @ApiProperty({ type: () => [TreeNode] }) children!: TreeNode[]
}

class Item {
  @ApiProperty({ type: Number, format: 'double' }) price!: number
  @ApiPropertyOptional({ enum: Level, isArray: true }) levels?: Level[]
  @ApiProperty({ type: () => Tag, description: 'Main tag' }) main!: Tag
  @ApiProperty({ type: [Tag] }) tags!: Tag[]
  @ApiProperty({ type: Date }) at!: Date
  @ApiProperty({ type: 'integer', minimum: 1 }) count!: number
  @ApiProperty({ type: Object, schema: { type: 'object', additionalProperties: true } } as any) bag!: object
  @ApiProperty({ type: Boolean, required: false }) flag?: boolean
}

test('enum objects give their values, not the names TypeScript maps numbers back to', () => {
  assert.deepEqual(enumValues(Level), [1, 2])
  assert.equal(enumType(enumValues(Level)), 'number')
  assert.deepEqual(enumValues(['a', 'b']), ['a', 'b'])
  assert.equal(enumType(['a', 1]), 'string')
  assert.deepEqual(enumValues(undefined), [])
})

test('@ApiProperty() options become a component schema: types, arrays, enums, lazy types, references, keywords and required', () => {
  const models = new ModelSchemas()
  assert.deepEqual(models.ref(Item), { $ref: '#/components/schemas/Item' })
  const { Item: item, Tag: tag } = models.components()
  assert.deepEqual(item, {
    type: 'object',
    properties: {
      price: { type: 'number', format: 'double' },
      levels: { type: 'array', items: { type: 'number', enum: [1, 2] } },
      // Keywords beside a reference go with it through allOf.
      main: { description: 'Main tag', allOf: [{ $ref: '#/components/schemas/Tag' }] },
      tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
      at: { type: 'string', format: 'date-time' },
      count: { type: 'integer', minimum: 1 },
      bag: { type: 'object', additionalProperties: true },
      flag: { type: 'boolean' }
    },
    required: ['price', 'main', 'tags', 'at', 'count', 'bag']
  })
  assert.deepEqual(tag, { type: 'object', properties: { label: { type: 'string', description: 'Label' } }, required: ['label'] })
})

test('a model that contains itself references its own component', () => {
  const models = new ModelSchemas()
  models.ref(TreeNode)
  assert.deepEqual(models.components().TreeNode.properties.children, { type: 'array', items: { $ref: '#/components/schemas/TreeNode' } })
  // Met again: the same reference, built once.
  assert.deepEqual(models.ref(TreeNode), { $ref: '#/components/schemas/TreeNode' })
  assert.deepEqual(Object.keys(models.components()), ['TreeNode'])
})

test('two models of the same name get components of their own', () => {
  const first = (() => { class Cat { @ApiProperty({ type: String }) name!: string } return Cat })()
  const second = (() => { class Cat { @ApiProperty({ type: Number }) age!: number } return Cat })()
  const models = new ModelSchemas()
  assert.deepEqual([models.ref(first), models.ref(second)], [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Cat_2' }])
})

test('types without @ApiProperty() are plain schemas; no type is no schema', () => {
  const models = new ModelSchemas()
  class Plain { name = '' }
  assert.equal(models.isModel(Plain), false)
  assert.deepEqual(models.schemaOf(Plain), { type: 'object' })
  assert.deepEqual(models.schemaOf(String, true), { type: 'array', items: { type: 'string' } })
  assert.deepEqual(models.schemaOf('integer'), { type: 'integer' })
  assert.equal(models.schemaOf(undefined), undefined)
  assert.equal(models.schemaOf(42), undefined)
  assert.deepEqual(models.components(), {})
})

test('@nestjs/swagger\'s metadata is found on classes and prototypes, and nowhere else', () => {
  assert.equal(hasSwaggerMetadata(Item.prototype), true)
  assert.equal(hasSwaggerMetadata(class Plain {}), false)
  assert.equal(hasSwaggerMetadata(null), false)
  assert.equal(hasSwaggerMetadata('Item'), false)
  assert.deepEqual(swaggerMetadata('swagger/apiModelPropertiesArray', Tag.prototype), [':label'])
})

test('a lazy type that throws fails registration naming the class, the property and the fix', () => {
  class Broken {
    @ApiProperty({ type: () => { throw new Error('Dto is not defined yet') } }) owner!: unknown
  }
  const models = new ModelSchemas()
  assert.throws(() => models.ref(Broken), (error: any) => {
    assert.equal(error.code, 'FDP_ERR_INVALID_DECLARATION')
    assert.match(error.message, /^Broken\.owner: the type of its @ApiProperty\(\) could not be read for the OpenAPI document: Dto is not defined yet\. Give a type/)
    assert.equal(error.cause.message, 'Dto is not defined yet')
    return true
  })
})
