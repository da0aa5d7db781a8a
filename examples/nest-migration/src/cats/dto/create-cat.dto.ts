import { IsInt, IsString, Max, Min, MinLength } from 'class-validator'

export class CreateCatDto {
  @IsString()
  @MinLength(1)
  name!: string

  @IsInt()
  @Min(0)
  @Max(30)
  age!: number

  @IsString()
  breed!: string
}
