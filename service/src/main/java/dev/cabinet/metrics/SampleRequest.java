package dev.cabinet.metrics;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/** One sample in {@code POST /metrics/{resourceId}}: an ISO-8601 UTC timestamp and the measurements. */
public record SampleRequest(
        @NotNull String timestamp,
        @NotNull @DecimalMin("0") @DecimalMax("100") Double cpu,
        @NotNull @DecimalMin("0") @DecimalMax("100") Double memory,
        @NotNull @PositiveOrZero Long requests) {
}
