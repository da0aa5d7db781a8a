import { IsInt, IsString, Min, MinLength } from 'class-validator'

/** The pipeline body as a class-validator DTO (the `pipeline-cv` scenario, every target). */
export class CreateItemDto {
  @IsString() @MinLength(1) name!: string
  @IsInt() @Min(0) qty!: number
}
