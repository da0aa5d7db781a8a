// Type tests for HttpStatus: a numeric enum, as in NestJS.
import { HttpCode, HttpException, HttpStatus } from '../../plugin/index.js'

const created: number = HttpStatus.CREATED
const name: string = HttpStatus[HttpStatus.NOT_FOUND]
HttpCode(HttpStatus.NO_CONTENT)
void new HttpException('gone', HttpStatus.GONE)
// @ts-expect-error: not a member
void HttpStatus.NOT_A_STATUS
void created
void name
