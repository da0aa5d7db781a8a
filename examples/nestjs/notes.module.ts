// A NestJS module as it would be written for NestJS: @nestjs/common and @nestjs/core only.
// Nothing in this file knows about fastify-decorator-plugin.
import {
  Body, CanActivate, Catch, Controller, ExceptionFilter, ExecutionContext, Get, HttpException, Injectable,
  Module, NotFoundException, Param, ParseIntPipe, Post, SetMetadata, UseFilters, UseGuards, UseInterceptors,
  ValidationPipe, type ArgumentsHost, type CallHandler, type NestInterceptor
} from '@nestjs/common'
import { HttpAdapterHost, Reflector } from '@nestjs/core'
import { IsString, MinLength } from 'class-validator'
import { tap, type Observable } from 'rxjs'

export const Public = () => SetMetadata('public', true)

export class CreateNoteDto {
  @IsString() @MinLength(1) text!: string
}

export interface Note { id: number, text: string }

@Injectable()
export class NotesService {
  readonly #notes: Note[] = []
  all (): Note[] { return this.#notes }
  find (id: number): Note {
    const note = this.#notes.find((candidate) => candidate.id === id)
    if (note === undefined) throw new NotFoundException(`Note ${id} not found`)
    return note
  }

  add (text: string): Note {
    const note = { id: this.#notes.length + 1, text }
    this.#notes.push(note)
    return note
  }
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor (private readonly reflector: Reflector) {}
  canActivate (context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>('public', [context.getHandler(), context.getClass()])) return true
    return context.switchToHttp().getRequest().headers['x-api-key'] === 'secret'
  }
}

@Injectable()
export class TimingInterceptor implements NestInterceptor {
  constructor (private readonly adapterHost: HttpAdapterHost) {}
  intercept (context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = performance.now()
    const reply = context.switchToHttp().getResponse()
    return next.handle().pipe(tap(() => {
      this.adapterHost.httpAdapter.setHeader(reply, 'x-response-time', `${(performance.now() - started).toFixed(1)}ms`)
    }))
  }
}

@Catch(HttpException)
export class ProblemFilter implements ExceptionFilter {
  catch (exception: HttpException, host: ArgumentsHost): void {
    const status = exception.getStatus()
    host.switchToHttp().getResponse().code(status).type('application/problem+json').send({ status, detail: exception.message })
  }
}

@Controller('notes')
@UseGuards(ApiKeyGuard)
@UseInterceptors(TimingInterceptor)
@UseFilters(ProblemFilter)
export class NotesController {
  constructor (private readonly notes: NotesService) {}

  @Get() @Public()
  all (): Note[] { return this.notes.all() }

  @Get(':id') @Public()
  one (@Param('id', ParseIntPipe) id: number): Note { return this.notes.find(id) }

  @Post()
  create (@Body(new ValidationPipe()) note: CreateNoteDto): Note { return this.notes.add(note.text) }
}

@Module({ controllers: [NotesController], providers: [NotesService], exports: [NotesService] })
export class NotesModule {}
