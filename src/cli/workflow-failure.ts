export { describeFailure } from '../shared/failure';
