package dev.cabinet.metrics;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.eventlog.EventFields;

/** One sample in {@code POST /metrics/{resourceId}}: an ISO-8601 UTC timestamp and the measurements. */
public record SampleRequest(
        @Schema(example = "2026-06-01T10:00:00.000Z") @NotNull String timestamp,
        @Schema(example = "41.5") @NotNull @DecimalMin("0") @DecimalMax("100") Double cpu,
        @Schema(example = "63.2") @NotNull @DecimalMin("0") @DecimalMax("100") Double memory,
        @Schema(example = "1200") @NotNull @PositiveOrZero @Max(EventFields.MAX_COUNT) Long requests) {
}
