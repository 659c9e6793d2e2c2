import styled,{createGlobalStyle} from 'styled-components'; window.x=[styled,createGlobalStyle];
