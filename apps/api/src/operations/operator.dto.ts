import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * Inputs of the gateway's own routes. Catalog routes need no classes (the catalog's schemas are
 * their contract); these do, so Nest's ValidationPipe and the OpenAPI document can read them.
 */
export class ReplayAllRequest {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100, description: 'Targets to replay in this page.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Continue after this cursor: the previous page\'s next_after.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  after?: number;
}

export class OnlineRebuildRequest {
  @ApiPropertyOptional({ maxLength: 63, description: 'One read model: `inline` (every model a submit writes) or an asynchronous projection; default all.' })
  @IsOptional()
  @IsString()
  @MaxLength(63)
  name?: string;
}

export class EventsQuery {
  @ApiPropertyOptional({
    minimum: 0,
    description: 'Global position of the last event already held (like Last-Event-ID; the header wins). Default 0: from the first event.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;
}

export class ApprovalsQuery {
  @ApiPropertyOptional({ enum: ['pending', 'granted', 'declined', 'withdrawn', 'all'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'granted', 'declined', 'withdrawn', 'all'])
  status?: 'pending' | 'granted' | 'declined' | 'all';

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class CommandApprovalsQuery {
  @ApiPropertyOptional({ enum: ['pending', 'granted', 'declined', 'timed_out', 'all'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'granted', 'declined', 'timed_out', 'all'])
  status?: 'pending' | 'granted' | 'declined' | 'timed_out' | 'all';

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class ApprovalDecision {
  @ApiPropertyOptional({ maxLength: 2000, description: 'Recorded with the decision.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}
