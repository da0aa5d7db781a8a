import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator'
import { Type } from 'class-transformer'

/** The pipeline body as a class-validator DTO (the `pipeline-cv` scenario, every target). */
export class CreateItemDto {
  @IsString() @MinLength(1) name!: string
  @IsInt() @Min(0) qty!: number
}

/** The query-dto scenario's query, as NestJS users write it: `limit` converted from its string. */
export class SearchQueryDto {
  @Type(() => Number) @IsInt() @Min(1) @Max(100) limit!: number
  @IsOptional() @IsIn(['asc', 'desc']) order?: string
  @IsOptional() @IsString() @MaxLength(50) q?: string
}
