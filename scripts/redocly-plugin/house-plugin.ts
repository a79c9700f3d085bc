/**
 * The project's Redocly plugin (`plugins:` in redocly.yaml): the house rules whose messages must
 * name the operation, the missing or wrong thing and the expected value, which Redocly's
 * configurable `rule/...` assertions cannot do. Used as `house/<rule>` in redocly.yaml.
 */
import { exampleConst } from './example-const.ts';
import {
  operationCreditCost,
  operationCreditCostPerPage,
  operationLaunchStatus,
  operationOneTag,
  operationStatuses,
} from './operation-fields.ts';
import { responseHeaders } from './response-headers.ts';

export default function housePlugin() {
  return {
    id: 'house',
    rules: {
      oas3: {
        'operation-credit-cost': operationCreditCost,
        'operation-credit-cost-per-page': operationCreditCostPerPage,
        'operation-launch-status': operationLaunchStatus,
        'operation-one-tag': operationOneTag,
        'operation-statuses': operationStatuses,
        'response-headers': responseHeaders,
        'example-const': exampleConst,
      },
    },
  };
}
