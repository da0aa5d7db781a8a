// Type tests: each built-in exception also names its instances' type, as a class does.
import { BadRequestException, Catch, HttpException, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '../../plugin/index.js'

@Catch(NotFoundException)
class NotFoundFilter implements ExceptionFilter {
  catch (exception: NotFoundException, host: ArgumentsHost) {
    host.switchToHttp().getResponse().code(exception.getStatus()).send(exception.getResponse())
  }
}
void NotFoundFilter

const bad: BadRequestException = new BadRequestException('bad')
const base: HttpException = bad
const status: number = bad.getStatus()
void base
void status
// @ts-expect-error: an exception's type is an exception, not its message
const notAnException: NotFoundException = 'not found'
void notAnException
