// Runs AllApp (schedule, event-emitter and cqrs together) in a process of its own: once the jobs
// have fired, an event and a command have been handled and the app is closed, nothing of theirs
// may keep the process alive. It prints what happened and never calls process.exit().
import Fastify from 'fastify'
import { decoratorPlugin } from '../../plugin/index.js'
import { AllApp, Journal, Orders, PlaceOrder } from './nest-events.js'

const app = Fastify()
await app.register(decoratorPlugin, { module: AllApp })
await app.ready()
const journal = app.container.get(Journal)
const started = Date.now()
while (!(journal.has('cron') && journal.has('interval') && journal.has('timeout')) && Date.now() - started < 5000) {
  await new Promise((resolve) => setTimeout(resolve, 20))
}
app.container.get(Orders).create(1)
await app.container.get(AllApp).commands.execute(new PlaceOrder(2))
await app.close()
process.stdout.write(`${JSON.stringify({ fired: ['cron', 'interval', 'timeout'].filter((entry) => journal.has(entry)) })}\n`)
process.stdout.write('closed\n')
