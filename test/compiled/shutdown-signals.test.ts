// The shutdownSignals option, on an app process compiled by tsc (decorator metadata emitted).
import { shutdownSignalTests } from '../helpers/shutdown-signals.js'

shutdownSignalTests()
