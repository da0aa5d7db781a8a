/**
 * NestJS's names for the versioning types. The values are the plugin's own, so
 * `{ type: VersioningType.HEADER, header: 'X-API-Version' }` is a valid `versioning` option.
 */
export const VersioningType = {
  URI: 'uri',
  HEADER: 'header',
  MEDIA_TYPE: 'media-type',
  CUSTOM: 'custom'
} as const

export type VersioningType = typeof VersioningType[keyof typeof VersioningType]
