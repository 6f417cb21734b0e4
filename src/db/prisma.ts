import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { PrismaClient };
export type Tx = Prisma.TransactionClient;
export type Db = PrismaClient | Tx;

export function createPrisma(connectionString: string, max = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
}
