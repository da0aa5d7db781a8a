import { IsInt, IsString, Length, Max, Min } from 'class-validator'

/** The body of POST /cats, checked by ValidationPipe (class-validator), compiled into the route's JSON schema. */
export class CreateCatDto {
  @IsString()
  @Length(1, 40)
  name!: string

  @IsInt()
  @Min(0)
  @Max(40)
  age!: number

  @IsString()
  breed!: string
}
