package dev.cabinet.customer;

import java.math.BigDecimal;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.table.Ids;

/**
 * The body of {@code POST /customers/{id}/orders}: the total, and optionally the order's id (for clients that bring
 * their own, such as O100) and when it was placed (default: now); the order's date is that instant's UTC date.
 */
public record NewOrderRequest(
        @Pattern(regexp = Ids.PATTERN) String orderId,
        String placedAt,
        @Schema(example = "129.90")
        @NotNull @DecimalMin("0") @DecimalMax("1000000000") @Digits(integer = 10, fraction = 2) BigDecimal total) {
}
