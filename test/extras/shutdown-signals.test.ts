// The shutdownSignals option, on an app process run through tsx.
import { shutdownSignalTests } from '../helpers/shutdown-signals.js'

shutdownSignalTests()
