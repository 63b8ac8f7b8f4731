import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CORRELATION_ID_PATTERN } from '@palimpsest/protocol/catalog/operations/audit.operations';

/** Inputs of the /v1/admin routes (what the CLI sends when it goes through a running gateway). */
export class AdminDispatchRequest {
  @ApiProperty({ description: 'The catalog operation, e.g. palimpsest_get_target.' })
  @IsString()
  @MaxLength(200)
  operation!: string;

  @ApiPropertyOptional({ description: 'Its arguments, as `palimpsest call` reads them (admission checks them).' })
  @Allow()
  args?: unknown;

  @ApiPropertyOptional({ description: 'Refuse write operations (the read-only profile).' })
  @IsOptional()
  @IsBoolean()
  read_only?: boolean;

  @ApiPropertyOptional({ description: 'The owner policy to call under: full, read-only or a profile of the gateway\'s PALIMPSEST_POLICY_FILE.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  profile?: string;

  @ApiPropertyOptional({ pattern: CORRELATION_ID_PATTERN, description: 'The client session the call belongs to (`palimpsest call` and `serve` send theirs); absent: one for this call.' })
  @IsOptional()
  @Matches(new RegExp(CORRELATION_ID_PATTERN))
  correlation_id?: string;
}

export class AdminTokenRequest {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ type: [String], description: 'read, write, operator, auditor, executor' })
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  scopes!: string[];

  @ApiPropertyOptional({ description: 'An owner policy stored with the token (docs/candidates.md).' })
  @IsOptional()
  @IsObject()
  policy?: Record<string, unknown>;
}

export class AdminTokensQuery {
  @ApiPropertyOptional({ description: 'Include revoked tokens.' })
  @IsOptional()
  @Transform(({ value }) => value === true || value === 'true')
  @IsBoolean()
  all?: boolean;
}

export class AdminApprovalDecision {
  @ApiProperty({ enum: ['grant', 'decline'] })
  @IsIn(['grant', 'decline'])
  decision!: 'grant' | 'decline';

  @ApiProperty({ description: 'Who decides, as recorded (the CLI sends cli:<user> or --by).' })
  @IsString()
  decided_by!: string;

  @ApiPropertyOptional({ description: 'Recorded with the decision.' })
  @IsOptional()
  @IsString()
  note?: string;
}

export class AdminLogRollRequest {
  @ApiPropertyOptional({ minimum: 1, maximum: 600000, description: 'How long to wait for writers in flight, in ms (default 5000).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(600_000)
  lock_timeout_ms?: number;
}

export class AdminLogArchiveRequest {
  @ApiProperty({ description: 'A global position (1 or more) or an ISO 8601 time: every closed epoch wholly before it is archived.', example: '2026-01-01T00:00:00Z' })
  @IsString()
  @MaxLength(64)
  before!: string;
}
