import { codexDriver } from './drivers/codex.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(codexDriver);
