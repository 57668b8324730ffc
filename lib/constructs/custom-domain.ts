import {
  type CfnRestApi,
  DomainName,
  EndpointAccessMode,
  EndpointType,
  type RestApi,
  SecurityPolicy,
  type Stage,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Construct } from 'constructs';

/**
 * TLS 1.3, and TLS 1.2 with forward-secret key exchange only, for the execute-api endpoint
 * and the custom domain alike: one of API Gateway's enhanced policies (2025), which need an
 * endpoint access mode. STRICT refuses a request whose TLS server name is not the endpoint's own.
 */
const securityPolicy = SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09;
const endpointAccessMode = EndpointAccessMode.STRICT;

/** The REST API's own endpoint under the enhanced policy (no L2 property for it yet). */
export function enforceModernTls(restApi: RestApi): void {
  const cfn = restApi.node.defaultChild as CfnRestApi;
  cfn.securityPolicy = securityPolicy;
  cfn.endpointAccessMode = endpointAccessMode;
}

export interface CustomDomainProps {
  /** The API's host name, e.g. api.example.com. */
  domainName: string;
  /** An ACM certificate for it, in the stack's region. */
  certificateArn: string;
}

/** The API at a domain of the operator's: the whole stage at its root, under the same TLS policy. */
export class CustomDomain extends Construct {
  private readonly domainName: string;
  /** Where the domain must point: a CNAME, or an alias record with the hosted zone `dnsTargetZone`. */
  readonly dnsTarget: string;
  readonly dnsTargetZone: string;

  constructor(scope: Construct, id: string, props: CustomDomainProps & { stage: Stage }) {
    super(scope, id);
    this.domainName = props.domainName;
    const domain = new DomainName(this, 'DomainName', {
      domainName: props.domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy,
      endpointAccessMode,
    });
    domain.addBasePathMapping(props.stage.restApi, { stage: props.stage });
    this.dnsTarget = domain.domainNameAliasDomainName;
    this.dnsTargetZone = domain.domainNameAliasHostedZoneId;
  }

  /** The address of a path at the domain. */
  urlForPath(path: string): string {
    return `https://${this.domainName}${path}`;
  }
}
