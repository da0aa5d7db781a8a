import multipart from '@fastify/multipart'
import { Module } from '../../plugin/index.js'
import { FilesController } from './files.controller.js'
import { FilesService } from './files.service.js'

// @fastify/multipart lives in this module's context only; larger files get a 413.
@Module({
  controllers: [FilesController],
  providers: [FilesService],
  plugins: [[multipart, { limits: { fileSize: 64 * 1024, files: 5 } }]]
})
export class AppModule {}
