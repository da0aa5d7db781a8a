import { Body, Controller, Get, Param, ParseIntPipe, Post, Res, UploadedFile, UploadedFiles, type Response, type UploadedFileInfo } from '../../plugin/index.js'
import { FilesService } from './files.service.js'
import { AllowedTypesPipe } from './allowed-types.pipe.js'

const images = new AllowedTypesPipe(['image/png', 'image/jpeg'])

@Controller('files')
export class FilesController {
  constructor (private readonly files: FilesService) {}

  // One file in field "file"; the other form fields are the body.
  @Post()
  upload (@UploadedFile('file') file: UploadedFileInfo, @Body('description') description?: string) {
    return this.files.save(file, description ?? null)
  }

  // Several images in field "images".
  @Post('images')
  uploadImages (@UploadedFiles('images', images) files: UploadedFileInfo[]) {
    return files.map((file) => this.files.save(file))
  }

  @Get(':id')
  download (@Param('id', ParseIntPipe) id: number, @Res() reply: Response) {
    const { info, content } = this.files.get(id)
    return reply.type(info.mimetype).header('content-disposition', `attachment; filename="${info.filename}"`).send(content)
  }
}
