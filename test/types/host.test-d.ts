// Type tests for host patterns and @HostParam.
import { Controller, Get, HostParam } from '../../plugin/index.js'

@Controller({ path: 'account', host: [':tenant.example.com', /^admin\./, 'static.test'] })
class AccountController {
  @Get() get (@HostParam('tenant') tenant: string, @HostParam() all: Record<string, string>) { return { tenant, all } }
}
void AccountController
// @ts-expect-error: a parameter name is a string
HostParam(1)
// @ts-expect-error: host takes strings and RegExps
Controller({ host: 42 })
