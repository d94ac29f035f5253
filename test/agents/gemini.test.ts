import { geminiDriver } from './drivers/gemini.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(geminiDriver);
