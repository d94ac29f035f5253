import { droidDriver } from './drivers/droid.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(droidDriver);
