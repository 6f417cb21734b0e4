import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { builder } from '../builder.js';
import './merchant.js';
import './project.js';
import './device.js';
import './card.js';
import './payment-link.js';
import './webhook-endpoint.js';
import './payment.js';
import './bank-message.js';
import './webhook-delivery.js';
import './checkout.js';
import './exceptions.js';
import './audit.js';
import './users.js';
import './reports.js';
import './password-reset.js';

export const schema: GraphQLSchema = lexicographicSortSchema(builder.toSchema());
