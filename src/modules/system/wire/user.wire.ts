export class ThemeWire {
  dark: boolean;
}
export class FontWire {
  size: number;
}
export class AestheticsWire {
  theme: ThemeWire;
  font: FontWire;
}
export class UserProfileWire {
  id: string;
  aesthetics: AestheticsWire;
}
export class UserWire {
  user: UserProfileWire;
}
