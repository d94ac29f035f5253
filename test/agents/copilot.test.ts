import { copilotDriver } from './drivers/copilot.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(copilotDriver);
