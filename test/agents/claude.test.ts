import { claudeDriver } from './drivers/claude.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(claudeDriver);
