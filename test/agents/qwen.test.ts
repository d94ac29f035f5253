import { qwenDriver } from './drivers/qwen.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(qwenDriver);
