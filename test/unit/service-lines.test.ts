import { errors } from '@elastic/elasticsearch';
import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { plainNetworkReason, serviceUnreachableLine } from '../../src/cli/service-lines';
import { describeWorkflowFailure } from '../../src/cli/workflow-failure';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { RetryState } from '@temporalio/common';

const where = { esUrl: 'http://127.0.0.1:9200', temporalAddress: '127.0.0.1:7233' };

/** A gRPC status error as @grpc/grpc-js raises it, wrapped the way the Temporal client wraps it. */
function grpcError(code: number, details: string): Error {
  const status = Object.assign(new Error(`${code} ${code === 14 ? 'UNAVAILABLE' : 'DEADLINE_EXCEEDED'}: ${details}`), { code, details, metadata: new Metadata() });
  return Object.assign(new Error('Failed to query Workflow'), { cause: status });
}

describe('one line per unreachable service, no raw Node or gRPC text (issue 39, low)', () => {
  it('Elasticsearch: the service, its address, a plain reason and what to do', () => {
    const line = serviceUnreachableLine(new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200'), where);
    expect(line).toBe('Elasticsearch at http://127.0.0.1:9200 does not answer (connection refused); run `verity infra up` or set ES_URL');
    expect(serviceUnreachableLine(new errors.TimeoutError('Request timed out'), where)).toMatch(/^Elasticsearch at http:\/\/127\.0\.0\.1:9200 does not answer \(no answer in time\)/);
  });

  it('Temporal: gRPC UNAVAILABLE or DEADLINE_EXCEEDED in the causes', () => {
    const line = serviceUnreachableLine(grpcError(14, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:7233'), where);
    expect(line).toBe('Temporal at 127.0.0.1:7233 does not answer (connection refused); run `verity infra status` (`verity infra up` starts it) or set TEMPORAL_ADDRESS');
    expect(serviceUnreachableLine(grpcError(4, 'Deadline exceeded after 10.001s'), where)).toMatch(/^Temporal at 127\.0\.0\.1:7233 does not answer \(no answer in time\)/);
  });

  it('leaves every other error to its own message', () => {
    expect(serviceUnreachableLine(new Error('index "x" does not exist'), where)).toBeUndefined();
    const notFound = Object.assign(new Error('5 NOT_FOUND: workflow not found'), { code: 5, details: 'workflow not found', metadata: new Metadata() });
    expect(serviceUnreachableLine(notFound, where)).toBeUndefined();
  });

  it('plain reasons for the raw texts seen in the field', () => {
    expect(plainNetworkReason('getaddrinfo ENOTFOUND es.internal')).toBe('host name not found');
    expect(plainNetworkReason('socket hang up')).toBe('connection dropped');
    expect(plainNetworkReason('self-signed certificate in certificate chain')).toMatch(/^TLS handshake failed/);
    expect(plainNetworkReason('something else')).toBe('no connection');
  });

  it("a verification the worker could not store or search for says so, without Node's text", () => {
    const cause = ApplicationFailure.create({ message: 'connect ECONNREFUSED 127.0.0.1:41234', type: 'ElasticsearchUnavailable' });
    const line = describeWorkflowFailure(new WorkflowFailedError('Workflow execution failed', cause, RetryState.NON_RETRYABLE_FAILURE));
    expect(line).toBe('the worker could not reach Elasticsearch (connection refused) [ElasticsearchUnavailable]; run `verity infra status` (`verity infra up` starts it)');
    expect(line).not.toMatch(/ECONNREFUSED/);
  });
});
